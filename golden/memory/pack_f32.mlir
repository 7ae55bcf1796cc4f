entry @pack_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i8>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = constant <i32: 512> : tile<i32>
  %10 = muli %1, %9 : tile<i32>
  %11 = reshape %10 : tile<i32> -> tile<1xi32>
  %12 = broadcast %11 : tile<1xi32> -> tile<512xi32>
  %13 = iota : tile<512xi32>
  %14 = addi %12, %13 : tile<512xi32>
  %15 = exti %14 signed : tile<512xi32> -> tile<512xi64>
  %16 = constant <i64: 0> : tile<512xi64>
  %17 = cmpi greater_than_or_equal %15, %16, signed : tile<512xi64> -> tile<512xi1>
  %18 = reshape %arg2 : tile<i64> -> tile<1xi64>
  %19 = broadcast %18 : tile<1xi64> -> tile<512xi64>
  %20 = cmpi less_than %15, %19, signed : tile<512xi64> -> tile<512xi1>
  %21 = andi %17, %20 : tile<512xi1>
  assert %21, "kernel `pack_f32`: `store_ptr_tko`: a lane addresses memory outside argument 1 (Shared) (at pointers.py:280)" : tile<512xi1>
  %22 = pack %7 : tile<128xf32> -> tile<512xi8>
  %23 = reshape %arg1 : tile<ptr<i8>> -> tile<1xptr<i8>>
  %24 = broadcast %23 : tile<1xptr<i8>> -> tile<512xptr<i8>>
  %25 = offset %24, %14 : tile<512xptr<i8>>, tile<512xi32> -> tile<512xptr<i8>>
  %26 = store_ptr_tko weak %25, %22 token=%8 : tile<512xptr<i8>>, tile<512xi8> -> token
  return
}
