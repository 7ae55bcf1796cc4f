entry @scratch_reverse(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = alloca num_elem = 128, alignment = 16 : tile<ptr<f32>>
  %10 = reshape %9 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %11 = broadcast %10 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %12 = constant <i32: 0> : tile<128xi32>
  %13 = iota : tile<128xi32>
  %14 = addi %12, %13 : tile<128xi32>
  %15 = offset %11, %14 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %16 = ptr_to_int %15 : tile<128xptr<f32>> -> tile<128xi64>
  %17 = ptr_to_int %9 : tile<ptr<f32>> -> tile<i64>
  %18 = reshape %17 : tile<i64> -> tile<1xi64>
  %19 = broadcast %18 : tile<1xi64> -> tile<128xi64>
  %20 = subi %16, %19 : tile<128xi64>
  %21 = constant <i64: 0> : tile<128xi64>
  %22 = cmpi greater_than_or_equal %20, %21, signed : tile<128xi64> -> tile<128xi1>
  %23 = constant <i64: 512> : tile<i64>
  %24 = constant <i64: 4> : tile<i64>
  %25 = subi %23, %24 : tile<i64>
  %26 = reshape %25 : tile<i64> -> tile<1xi64>
  %27 = broadcast %26 : tile<1xi64> -> tile<128xi64>
  %28 = cmpi less_than_or_equal %20, %27, signed : tile<128xi64> -> tile<128xi1>
  %29 = andi %22, %28 : tile<128xi1>
  assert %29, "kernel `scratch_reverse`: `store_ptr_tko`: a lane addresses memory outside its scratch buffer (at pointers.py:202)" : tile<128xi1>
  %30 = store_ptr_tko weak %15, %7 token=%8 : tile<128xptr<f32>>, tile<128xf32> -> token
  %31 = constant <i32: 127> : tile<128xi32>
  %32 = subi %31, %13 : tile<128xi32>
  %33 = offset %11, %32 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %34 = ptr_to_int %33 : tile<128xptr<f32>> -> tile<128xi64>
  %35 = subi %34, %19 : tile<128xi64>
  %36 = cmpi greater_than_or_equal %35, %21, signed : tile<128xi64> -> tile<128xi1>
  %37 = cmpi less_than_or_equal %35, %27, signed : tile<128xi64> -> tile<128xi1>
  %38 = andi %36, %37 : tile<128xi1>
  assert %38, "kernel `scratch_reverse`: `load_ptr_tko`: a lane addresses memory outside its scratch buffer (at pointers.py:203)" : tile<128xi1>
  %39, %40 = load_ptr_tko weak %33 token=%30 : tile<128xptr<f32>> -> tile<128xf32>, token
  %41 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %42 = make_tensor_view %41, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %43 = make_partition_view %42 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %44 = store_view_tko weak %39, %43[%1] token = %40 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
