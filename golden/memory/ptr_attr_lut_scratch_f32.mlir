global  constant @lut16_attr alignment = 16 <f32: [0.000000e+00, -5.000000e-01, 1.000000e+00, -1.500000e+00, 2.000000e+00, -2.500000e+00, 3.000000e+00, -3.500000e+00, 4.000000e+00, -4.500000e+00, 5.000000e+00, -5.500000e+00, 6.000000e+00, -6.500000e+00, 7.000000e+00, -7.500000e+00]> : tile<16xf32>
entry @ptr_attr_lut_scratch_f32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = get_global @lut16_attr : tile<ptr<f32, <none>>>
  %10 = reshape %9 : tile<ptr<f32, <none>>> -> tile<1xptr<f32, <none>>>
  %11 = broadcast %10 : tile<1xptr<f32, <none>>> -> tile<128xptr<f32, <none>>>
  %12 = constant <i32: 15> : tile<128xi32>
  %13 = andi %7, %12 : tile<128xi32>
  %14 = offset %11, %13 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %15, %16 = load_ptr_tko weak %14 token=%8 : tile<128xptr<f32, <none>>> -> tile<128xf32>, token
  %17 = alloca num_elem = 128, alignment = 16 : tile<ptr<f32, <none>>>
  %18 = reshape %17 : tile<ptr<f32, <none>>> -> tile<1xptr<f32, <none>>>
  %19 = broadcast %18 : tile<1xptr<f32, <none>>> -> tile<128xptr<f32, <none>>>
  %20 = constant <i32: 0> : tile<128xi32>
  %21 = iota : tile<128xi32>
  %22 = addi %20, %21 : tile<128xi32>
  %23 = offset %19, %22 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %24 = store_ptr_tko weak %23, %15 token=%16 : tile<128xptr<f32, <none>>>, tile<128xf32> -> token
  %25 = constant <i32: 127> : tile<128xi32>
  %26 = subi %25, %21 : tile<128xi32>
  %27 = offset %19, %26 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %28, %29 = load_ptr_tko weak %27 token=%24 : tile<128xptr<f32, <none>>> -> tile<128xf32>, token
  %30 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %31 = make_tensor_view %30, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %32 = make_partition_view %31 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %33 = store_view_tko weak %28, %32[%1] token = %29 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
