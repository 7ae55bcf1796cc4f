entry @pack_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i8>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = pack %7 : tile<128xf32> -> tile<512xi8>
  %10 = reshape %arg1 : tile<ptr<i8>> -> tile<1xptr<i8>>
  %11 = broadcast %10 : tile<1xptr<i8>> -> tile<512xptr<i8>>
  %12 = constant <i32: 512> : tile<i32>
  %13 = muli %1, %12 : tile<i32>
  %14 = reshape %13 : tile<i32> -> tile<1xi32>
  %15 = broadcast %14 : tile<1xi32> -> tile<512xi32>
  %16 = iota : tile<512xi32>
  %17 = addi %15, %16 : tile<512xi32>
  %18 = offset %11, %17 : tile<512xptr<i8>>, tile<512xi32> -> tile<512xptr<i8>>
  %19 = store_ptr_tko weak %18, %9 token=%8 : tile<512xptr<i8>>, tile<512xi8> -> token
  return
}
